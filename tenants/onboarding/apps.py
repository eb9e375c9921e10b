from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    name = "tenants.onboarding"
    label = "onboarding"
    verbose_name = "Onboarding"
