"""The pricing app's routes, one module per concern (mounted in this order, as `fueldesk.api` reads
`routes`): payment terms and methods, taxes, fees, buying prices (the rack), pricing rules, customer
pricing and the price check. Each module is thin: the kit's `Crud` declarations and routes that call
`services` (writes) and `selectors` (reads), with `PricingError` answered by `errors.as_http_error`."""

from tenants.pricing.api import customer_prices, fees, rack, rules, taxes, terms

routes = [
    ("/payment-term", terms.payment_term_router),
    ("/payment-method", terms.payment_method_router),
    ("/tax", taxes.tax_router),
    ("/fee", fees.fee_router),
    ("/buying-price", rack.buying_price_router),
    ("/pricing-rule", rules.pricing_rule_router),
    ("/customer-price", customer_prices.customer_price_router),
]
