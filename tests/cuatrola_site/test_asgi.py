import pytest
from channels.testing import HttpCommunicator

from cuatrola_site.asgi import application


@pytest.mark.django_db
async def test_the_liveness_probe_answers_ok_whatever_the_host():
    communicator = HttpCommunicator(
        application, "GET", "/healthz", headers=[(b"host", b"10.0.0.9")]
    )
    response = await communicator.get_response()
    assert response["status"] == 200
    assert response["body"] == b"ok"
