from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "tenants.jobs"
    label = "jobs"

    def ready(self) -> None:
        # core.jobs writes the job log through this app (core imports no app under tenants/).
        from core.jobs import register_recorder

        from tenants.jobs.services import record_job

        register_recorder(record_job)
