from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.errors import ReportError
from accounts.forms import ReportForm
from accounts.http import AuthenticatedHttpRequest, query_number, user_or_404
from accounts.models import Ban
from accounts.services import report_create


def banned_response(request: HttpRequest, ban: Ban) -> TemplateResponse:
    """The page a banned user sees instead of logging in (403)."""
    return TemplateResponse(request, "accounts/banned.html", {"ban": ban}, status=403)


def profile(request: HttpRequest, username: str) -> TemplateResponse:
    profile_user = user_or_404(username)
    is_self = request.user == profile_user
    # Linked from a match page as ?match=<id>: a report is about that match.
    match_id = query_number(request, "match", minimum=1)
    report_form = None
    if request.user.is_authenticated and not is_self:
        report_form = ReportForm(initial={"match_id": match_id})
    return TemplateResponse(
        request,
        "accounts/profile.html",
        {"profile_user": profile_user, "is_self": is_self, "report_form": report_form},
    )


@login_required
@require_POST
def report(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    reported = user_or_404(username)
    form = ReportForm(request.POST)
    if form.is_valid():
        try:
            report_create(
                reporter=request.user,
                reported=reported,
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                match_id=form.cleaned_data.get("match_id"),
            )
        except ReportError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Thank you. A moderator will look at your report."))
            return redirect("profile", username=reported.username)
    return TemplateResponse(
        request,
        "accounts/profile.html",
        {"profile_user": reported, "is_self": request.user == reported, "report_form": form},
        status=400,
    )
