from django.apps import AppConfig


class SequencesConfig(AppConfig):
    name = "tenants.sequences"
    label = "sequences"
