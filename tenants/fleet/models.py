"""Drivers, trucks and equipment."""

from django.db import models


class Driver(models.Model):
    name = models.CharField(max_length=200)
    phone = models.CharField(max_length=40, blank=True, default="")
    email = models.EmailField(blank=True, default="")
    licence_class = models.CharField(max_length=10, blank=True, default="")
    licence_expiry = models.DateField(null=True, blank=True)
    hazmat_expiry = models.DateField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    # The login that gives this driver the driver layout.
    user = models.OneToOneField(
        "accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="driver"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name
