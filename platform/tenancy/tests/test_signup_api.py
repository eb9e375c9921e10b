from conftest import Api


def test_signup_answers_a_working_session_and_refuses_taken_names(two_tenants, db):
    anon = Api(None)
    body = {
        "company_name": "Gulf Coast Propane",
        "name": "Gina Owner",
        "email": "gina@gulfcoast.test",
        "password": "Propane-2026-ok",
    }
    res = anon.post("/api/tenant", body)
    assert res.status_code == 201, res.json()
    data = res.json()["data"]
    assert data["token_type"] == "bearer" and data["user"]["role"]["name"] == "Admin"
    profile = Api(data["access_token"]).get("/api/profile").json()["data"]
    assert profile["email"] == "gina@gulfcoast.test" and profile["tenant"]["name"] == "Gulf Coast Propane"

    same_company = anon.post(
        "/api/tenant", {**body, "company_name": "gulf coast propane", "email": "x@gulf.test"}
    )
    assert same_company.status_code == 409
    assert same_company.json() == {"detail": "A company with this name is already signed up."}
    same_email = anon.post("/api/tenant", {**body, "company_name": "Another Co"})
    assert same_email.status_code == 409
    assert same_email.json() == {"detail": "An account with this email already exists."}
    assert (
        anon.post("/api/tenant", {**body, "company_name": "Third Co", "email": "not-an-email"}).status_code
        == 422
    )
