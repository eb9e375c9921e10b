from django.db import models


class CompanySettings(models.Model):
    """The company's profile: one row per tenant."""

    company_name = models.CharField(max_length=200)
    address_one = models.CharField(max_length=200, blank=True, default="")
    address_two = models.CharField(max_length=200, blank=True, default="")
    state = models.ForeignKey("geo.State", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    city = models.ForeignKey("geo.City", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    zip_code = models.CharField(max_length=20, blank=True, default="")
    postal_code = models.CharField(max_length=20, blank=True, default="")
    phone_number = models.CharField(max_length=40, blank=True, default="")
    email = models.EmailField(blank=True, default="")
    website_url = models.URLField(blank=True, default="")
    # [{file_key, file_name, file_path, full_path, file_url}] as answered by the upload call.
    logo = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "company settings"

    def __str__(self) -> str:
        return self.company_name
