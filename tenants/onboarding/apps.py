from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    name = "tenants.onboarding"
    label = "onboarding"
    verbose_name = "Onboarding"

    def ready(self) -> None:
        from tenants.onboarding.steps import register_builtin_steps

        register_builtin_steps()
