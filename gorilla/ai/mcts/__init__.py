"""The MCTS: the agent, the search tree, the priors of new nodes and the time manager."""
