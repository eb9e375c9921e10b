from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "tenants.mail"
    label = "mail"
    verbose_name = "Email outbox"

    def ready(self) -> None:
        from tenants.mail import (
            document_sources,
            receivers,  # noqa: F401  queued emails become worker messages
        )

        document_sources.register()  # the designer previews templates with real invoices and tickets
