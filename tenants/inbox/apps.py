from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "tenants.inbox"
    label = "inbox"
    verbose_name = "Inbox agent"
