"""A tiny game with chance, for testing the controller: not registered in the program."""
