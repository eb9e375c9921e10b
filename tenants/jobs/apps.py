from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "tenants.jobs"
    label = "jobs"
