"""How Home Search goals are said: each criterion's phrases, whole goals, and the goal templates.

* :mod:`.phrases`: the phrases of one criteria group in each role (:class:`CriterionPhrases`);
* :mod:`.writer`: a goal's criteria in words, each exactly once, in the order the gold sets them;
* :mod:`.templates`: about thirty ways to write a goal.
"""
