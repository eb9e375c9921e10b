from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "tenants.inbox"
    label = "inbox"
    verbose_name = "Inbox agent"

    def ready(self) -> None:
        # Quote requests ask for replies to the connected mailbox (quotes never import the inbox).
        from tenants.inbox import selectors
        from tenants.quotes import selectors as quote_selectors

        quote_selectors.register_mailbox_reader(selectors.reply_mailbox)
