routes: list = []
