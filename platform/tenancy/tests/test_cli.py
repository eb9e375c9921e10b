import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from conftest import Api


def run(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_operator_cli_creates_lists_suspends_resumes_and_adds_admins(db, two_tenants):
    out = run(
        "tenant_create",
        "Cli Fuel",
        "--admin-email",
        "boss@cli.test",
        "--admin-name",
        "Boss",
        "--admin-password",
        "Cli-pass-2026",
    )
    assert "Created Cli Fuel" in out
    listing = run("tenant_list")
    line = next(ln for ln in listing.splitlines() if ln.startswith("Cli Fuel"))
    assert "active" in line and line.split()[-2] == "1"
    assert "tenant_template" not in listing and "tenant_template" in run("tenant_list", "--all")
    run("tenant_suspend", "Cli Fuel")
    from core.middleware import clear_tenant_cache

    clear_tenant_cache()
    res = Api(None).post("/api/login", {"email": "boss@cli.test", "password": "Cli-pass-2026"})
    assert res.status_code == 403 and "suspended" in res.json()["detail"]
    run("tenant_resume", "cli fuel")
    clear_tenant_cache()
    assert (
        Api(None).post("/api/login", {"email": "boss@cli.test", "password": "Cli-pass-2026"}).status_code
        == 200
    )
    run(
        "tenant_create_admin",
        "Cli Fuel",
        "--email",
        "second@cli.test",
        "--name",
        "Second",
        "--password",
        "Cli-pass-2027",
    )
    profile = (
        Api(
            Api(None)
            .post("/api/login", {"email": "second@cli.test", "password": "Cli-pass-2027"})
            .json()["data"]["access_token"]
        )
        .get("/api/profile")
        .json()["data"]
    )
    assert profile["role"]["name"] == "Admin"
    with pytest.raises(CommandError):
        run("tenant_suspend", "no-such-company")
    with pytest.raises(CommandError, match="already exists"):
        run(
            "tenant_create",
            "Other",
            "--admin-email",
            "boss@cli.test",
            "--admin-name",
            "X",
            "--admin-password",
            "Cli-pass-2026",
        )
