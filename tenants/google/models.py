"""A company's Google account for sending mail, and the one-time `state` of each OAuth round trip
(docs/google.md). Tokens are stored encrypted (core.secretbox, purpose "google/tokens")."""

from django.db import models


class GoogleConnection(models.Model):
    """The Google account a company sends its mail through (at most one: `purpose` is unique)."""

    class Status(models.TextChoices):
        CONNECTED = "connected"
        # Google refused the grant (revoked, expired, password changed): a person must reconnect.
        RECONNECT = "reconnect"

    MAIL = "mail"

    purpose = models.CharField(max_length=20, unique=True, default=MAIL)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CONNECTED)
    email = models.CharField(max_length=254)
    sub = models.CharField(max_length=255)
    scope = models.TextField(blank=True, default="")
    refresh_token = models.TextField()  # encrypted
    access_token = models.TextField(blank=True, default="")  # encrypted
    access_expires_at = models.DateTimeField(null=True, blank=True)
    connected_at = models.DateTimeField()
    connected_by = models.ForeignKey(
        "accounts.User", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    last_error = models.TextField(blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.email} ({self.status})"


class OAuthState(models.Model):
    """One authorization round trip: the `state` sent to Google (checked and used once on the way
    back) and the `nonce` its ID token must carry."""

    state = models.CharField(max_length=100, unique=True)
    nonce = models.CharField(max_length=100)
    user = models.ForeignKey(
        "accounts.User", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["created_at"], name="google_oauthstate_created")]

    def __str__(self) -> str:
        return f"state {self.state[:8]}…"


class GoogleIdentity(models.Model):
    """A staff user's Google account for "Sign in with Google": matched by verified email the first
    time, then by Google's stable `sub` (docs/google.md)."""

    user = models.OneToOneField("accounts.User", on_delete=models.CASCADE, related_name="google_identity")
    sub = models.CharField(max_length=255, unique=True)
    email = models.CharField(max_length=254)
    linked_at = models.DateTimeField(auto_now_add=True)
    last_sign_in_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.email} (Google {self.sub})"
