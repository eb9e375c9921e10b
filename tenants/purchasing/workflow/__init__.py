"""The purchasing app's workflows, one module per document: `po` (the purchase order's machine and
actions) and `bill` (the bill's). Other apps use them as `tenants.purchasing.workflow.<module>`."""
