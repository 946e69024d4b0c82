from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Friends and blocks")

    def ready(self) -> None:
        from django.urls import reverse

        from games.hooks import (
            register_blockers,
            register_blocks,
            register_link,
            register_page_section,
            register_talk_filter,
            register_watcher_talk_filter,
        )
        from games.signals import match_started
        from social.receivers import on_match_started
        from social.sections import lobby_requests_section
        from social.selectors import (
            blocked_between,
            blocked_by_any,
            talk_hidden_from,
            watcher_talk_filter,
        )

        match_started.connect(on_match_started, dispatch_uid="social-friends-playing")
        register_blocks(blocked_between)
        register_blockers(blocked_by_any)
        register_talk_filter(talk_hidden_from)
        register_watcher_talk_filter(watcher_talk_filter)
        register_link("block", lambda: reverse("social:block"))
        register_page_section("lobby_invitations", lobby_requests_section)
        register_link(
            "follow", lambda username: reverse("social:follow", kwargs={"username": username})
        )
