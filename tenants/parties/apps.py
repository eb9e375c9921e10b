from django.apps import AppConfig, apps


class PartiesConfig(AppConfig):
    name = "tenants.parties"
    label = "parties"

    def ready(self) -> None:
        # The customers' trigram indexes are GIN indexes on OpClass(Upper(field), "gin_trgm_ops").
        # Index SQL renders OpClass right only once it is registered as an index-expression wrapper,
        # which django.contrib.postgres does in its ready(). That app is not in INSTALLED_APPS, so do
        # the same registration here (nothing else of that app is needed); redundant once it is.
        if not apps.is_installed("django.contrib.postgres"):
            from django.contrib.postgres.indexes import OpClass
            from django.db.models import OrderBy
            from django.db.models.functions import Collate
            from django.db.models.indexes import IndexExpression

            IndexExpression.register_wrappers(OrderBy, OpClass, Collate)
