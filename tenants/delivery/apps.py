from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    name = "tenants.delivery"
    label = "delivery"
    verbose_name = "Delivery tickets"
    default_auto_field = "django.db.models.BigAutoField"
