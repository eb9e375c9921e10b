import io
import socket
import subprocess
import sys
import time

import pytest
from django.test import override_settings
from PIL import Image

from conftest import Api


def png_bytes(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), color).save(buf, "PNG")
    return buf.getvalue()


def upload(api: Api, data: bytes, name: str = "logo.png", purpose: str = "logo"):
    f = io.BytesIO(data)
    f.name = name
    return api.client.post(
        "/api/storage/upload-file", {"file": f, "purpose": purpose}, HTTP_AUTHORIZATION=f"Bearer {api.token}"
    )


def test_settings_are_created_read_and_updated_with_a_logo(api_a, in_tenant, tenant_a):
    assert api_a.get("/api/company-settings/").json()["data"] is None
    up = upload(api_a, png_bytes())
    assert up.status_code == 201, up.json()
    logo = up.json()["data"]
    assert logo["file_key"].startswith(f"tenants/{tenant_a.schema}/logo/")
    assert set(logo) >= {"file_key", "file_name", "file_path", "full_path", "file_url"}
    from tenants.geo.models import City, State

    with in_tenant(tenant_a):
        tx = State.objects.create(name="Texas", code="TX")
        houston = City.objects.create(name="Houston", state=tx)
    res = api_a.post(
        "/api/company-settings/",
        {
            "company_name": "Alpha Fuels LLC",
            "address_one": "1 Main St",
            "state_id": tx.pk,
            "city_id": houston.pk,
            "email": "office@alpha.test",
            "logo": [{k: logo[k] for k in ("file_key", "file_name", "file_path", "full_path", "file_url")}],
        },
    )
    assert res.status_code == 201, res.json()
    body = res.json()
    assert body["message"] == "Company settings created successfully"
    assert body["data"]["state"]["code"] == "TX" and body["data"]["city"]["name"] == "Houston"
    again = api_a.post("/api/company-settings/", {"company_name": "Twice"})
    assert again.status_code == 409
    sid = body["data"]["id"]
    res = api_a.put(f"/api/company-settings/{sid}", {"phone_number": "+1 713 555 0100"})
    assert res.status_code == 200 and res.json()["message"] == "Company settings updated successfully"
    got = api_a.get("/api/company-settings").json()["data"]
    assert got["phone_number"] == "+1 713 555 0100" and got["company_name"] == "Alpha Fuels LLC"
    image = api_a.get(logo["file_url"])
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert image.content == png_bytes()


def test_city_must_be_in_the_chosen_state(api_a, in_tenant, tenant_a):
    from tenants.geo.models import City, State

    with in_tenant(tenant_a):
        tx = State.objects.create(name="Texas", code="TX")
        ok = State.objects.create(name="Oklahoma", code="OK")
        tulsa = City.objects.create(name="Tulsa", state=ok)
    res = api_a.post("/api/company-settings/", {"company_name": "X", "state_id": tx.pk, "city_id": tulsa.pk})
    assert res.status_code == 422 and res.json()["detail"] == "city_id: this city is not in the chosen state."


def test_logo_must_be_an_image_and_within_the_size_limit(api_a):
    res = upload(api_a, b"%PDF-1.4 not an image", name="logo.png")
    assert res.status_code == 415 and "PNG, JPEG, GIF or WebP" in res.json()["detail"]
    with override_settings(FILE_UPLOAD_MAX_BYTES=1000):
        res = upload(api_a, png_bytes() + b"\0" * 2000)
    assert res.status_code == 413 and "too large" in res.json()["detail"]
    assert upload(api_a, b"", name="empty.png").status_code in (413, 422)


def test_a_tenants_file_is_not_readable_with_another_tenants_token(api_a, api_b):
    logo = upload(api_a, png_bytes("blue")).json()["data"]
    assert api_a.get(logo["file_url"]).status_code == 200
    res = api_b.get(logo["file_url"])
    assert res.status_code == 404 and res.json()["detail"] == "File not found"
    assert Api(None).get(logo["file_url"]).status_code == 401


def test_company_logo_from_another_tenant_is_refused(api_a, api_b):
    logo = upload(api_a, png_bytes()).json()["data"]
    res = api_b.post(
        "/api/company-settings/",
        {
            "company_name": "Bravo",
            "logo": [{k: logo[k] for k in ("file_key", "file_name", "file_path", "full_path", "file_url")}],
        },
    )
    assert res.status_code == 422


@pytest.fixture
def s3_server():
    """moto's S3 server on a free loopback port: a real S3 API over HTTP."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    client.create_bucket(Bucket="fueldesk-test")
    yield url, client
    proc.terminate()
    proc.wait(timeout=10)


def test_uploads_go_to_s3_under_the_tenant_prefix(api_a, api_b, tenant_a, s3_server, monkeypatch):
    url, client = s3_server
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    s3 = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {"bucket_name": "fueldesk-test", "endpoint_url": url, "region_name": "us-east-1"},
    }
    with override_settings(
        STORAGES={
            "default": s3,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    ):
        # override_settings(STORAGES) resets Django's storage handler and default_storage itself.
        res = upload(api_a, png_bytes("green"))
        assert res.status_code == 201, res.json()
        key = res.json()["data"]["file_key"]
        objects = client.list_objects_v2(Bucket="fueldesk-test")["Contents"]
        assert [o["Key"] for o in objects] == [key]
        assert key.startswith(f"tenants/{tenant_a.schema}/logo/")
        assert client.get_object(Bucket="fueldesk-test", Key=key)["Body"].read() == png_bytes("green")
        assert api_a.get(res.json()["data"]["file_url"]).content == png_bytes("green")
        assert api_b.get(res.json()["data"]["file_url"]).status_code == 404
