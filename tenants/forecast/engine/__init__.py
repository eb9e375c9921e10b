"""The forecast's arithmetic: fitting usage, projecting levels, ranking what is due.

Pure Python and numpy, no ORM: the app's services feed it rows and store what it answers, and the
simulation benchmark drives the same functions.
"""
