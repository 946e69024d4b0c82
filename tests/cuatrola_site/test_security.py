import re

import pytest


@pytest.mark.django_db
def test_every_page_carries_a_csp_that_allows_no_third_party_origin(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    sources = " ".join(directives.values()).split()
    assert all(s in {"'self'", "'none'", "data:"} for s in sources), sources


@pytest.mark.django_db
def test_pages_load_no_script_or_style_from_elsewhere_and_no_inline_script(client):
    body = client.get("/accounts/signup/").content.decode()
    assert not re.search(r"""<script[^>]+src=["']https?://""", body)
    assert not re.search(r"""<link[^>]+href=["']https?://""", body)
    assert not re.search(r"<script>(?!\s*</script>)", body)
    assert "/static/vendor/htmx/htmx-2.0.11.min.js" in body


@pytest.mark.django_db
def test_htmx_requests_carry_the_csrf_token(client):
    body = client.get("/").content.decode()
    match = re.search(r"""hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""", body)
    assert match and len(match.group(1)) >= 32


@pytest.mark.django_db
def test_the_admin_is_served_at_admin(client, staff_user):
    client.force_login(staff_user)
    assert client.get("/admin/").status_code == 200
