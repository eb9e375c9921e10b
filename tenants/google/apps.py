from django.apps import AppConfig


class GoogleConfig(AppConfig):
    name = "tenants.google"
    label = "google"
    verbose_name = "Google (mail sending, sign-in)"

    def ready(self) -> None:
        from tenants.google import gmail, onboarding
        from tenants.mail.services import register_transport

        # The outbox sends through Gmail when the company connected a Google account.
        register_transport("gmail", gmail.resolve_transport)
        onboarding.register()  # "Connect your mail" on the onboarding checklist
