"""PUCT search over the neural network: the ``net`` agent (``search.py`` the tree, ``agent.py`` the agent,
``evaluator.py`` the net behind the search's :class:`~gorilla.ai.puct.search.Evaluator` interface)."""
