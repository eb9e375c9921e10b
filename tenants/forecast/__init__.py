"""Keep-full forecasting: tank usage models, projections and the due list (issue 26)."""
