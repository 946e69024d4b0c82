"""A person signs up, sees their profile, logs out and logs back in, in Chromium."""

import re

from playwright.sync_api import expect

PASSWORD = "un-Largo-secreto-2026"


def test_a_new_user_signs_up_sees_the_profile_logs_out_and_back_in(asgi_server, page):
    page.goto(asgi_server.url + "/accounts/signup/")
    page.get_by_label("Correo electrónico:").fill("lucia@example.com")
    page.get_by_label("Usuario:").fill("lucia")
    page.get_by_label("Contraseña:", exact=True).fill(PASSWORD)
    page.get_by_label(re.compile("Contraseña \\(de nuevo\\)|Repetir contraseña")).fill(PASSWORD)
    page.get_by_role("button", name="Registrarse").click()

    nav = page.get_by_role("navigation", name="Principal")
    expect(nav.get_by_role("link", name="lucia")).to_be_visible()

    nav.get_by_role("link", name="lucia").click()
    expect(page).to_have_url(asgi_server.url + "/u/lucia/")
    expect(page.get_by_role("heading", name="lucia")).to_be_visible()

    nav.get_by_role("button", name="Cerrar sesión").click()
    expect(nav.get_by_role("link", name="Iniciar sesión")).to_be_visible()

    nav.get_by_role("link", name="Iniciar sesión").click()
    page.get_by_placeholder(re.compile("usuario|correo", re.IGNORECASE)).fill("lucia")
    page.get_by_placeholder("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    expect(nav.get_by_role("link", name="lucia")).to_be_visible()


def test_a_taken_username_is_explained_on_the_form(asgi_server, page, make_user):
    make_user("lucia")
    page.goto(asgi_server.url + "/accounts/signup/")
    page.get_by_label("Correo electrónico:").fill("otra@example.com")
    page.get_by_label("Usuario:").fill("LUCIA")
    page.get_by_label("Contraseña:", exact=True).fill(PASSWORD)
    page.get_by_label(re.compile("Contraseña \\(de nuevo\\)|Repetir contraseña")).fill(PASSWORD)
    page.get_by_role("button", name="Registrarse").click()
    expect(page.get_by_text(re.compile("ya existe|ya está en uso", re.IGNORECASE))).to_be_visible()
