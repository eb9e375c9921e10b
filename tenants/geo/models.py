from django.db import models
from django.db.models.functions import Lower


class State(models.Model):
    name = models.CharField(max_length=100)
    code = models.CharField(max_length=10, help_text="Postal abbreviation, e.g. TX")
    country = models.CharField(max_length=2, default="US")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("code"), "country", name="state_unique_code"),
            models.UniqueConstraint(Lower("name"), "country", name="state_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class City(models.Model):
    name = models.CharField(max_length=120)
    state = models.ForeignKey(State, on_delete=models.PROTECT, related_name="cities")

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "cities"
        constraints = [models.UniqueConstraint(Lower("name"), "state", name="city_unique_name_in_state")]

    def __str__(self) -> str:
        return self.name
