"""The planning problem, its solver (PyVRP) and an independent checker of every plan.

No ORM: the app's services build a Problem from the day's rows and store the Plan it answers, and
route_benchmark and the realistic-day benchmark drive the same code.
"""
