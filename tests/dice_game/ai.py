from simulator.core.agents import MCTSAgent, Strength

STRENGTHS = {"easy": Strength("easy", "Easy", lambda: MCTSAgent(iterations=50))}
DEFAULT_STRENGTH = "easy"
