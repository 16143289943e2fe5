"""Puzzles played over time (`state`, `action`, `init`, `goal`, `horizon`; docs §20).

- `problem`: grounding the actions over template state atoms, and what the data decide before
  any search (reachability, count and parity invariants);
- `search`: plans by time-indexed SAT over a growing horizon, with proofs of lower bounds;
- `tour`: "collect everything, then reach the goal" lowered to a tour over collection events;
- `report`: the plan, its boards and its proof status, for people or as JSON.
"""
