"""What a load balancer and an operator call without signing in."""


def test_ping_answers_pong(anon, db):
    res = anon.get("/api/ping")
    assert res.status_code == 200 and res.json()["message"] == "pong"


def test_health_reports_each_dependency(anon, db):
    res = anon.get("/api/health")
    assert res.status_code == 200, res.json()
    assert res.json()["data"] == {"database": "ok", "redis": "ok", "storage": "ok"}
