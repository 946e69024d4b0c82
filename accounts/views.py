from django.template.response import TemplateResponse

from accounts.selectors import user_by_username


def profile(request, username: str):
    profile_user = user_by_username(username)
    return TemplateResponse(
        request,
        "accounts/profile.html",
        {"profile_user": profile_user, "is_self": request.user == profile_user},
    )
