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

        from tenants.accounts.services import SignInProvider, register_sign_in_provider
        from tenants.google import services

        register_sign_in_provider(
            "google",
            SignInProvider(
                start=services.start_sign_in, verify=services.sign_in_claims, user_id=services.sign_in_user_id
            ),
        )
