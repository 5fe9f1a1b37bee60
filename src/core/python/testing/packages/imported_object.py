"""A TRL reward object built by imported code, as `soft = get_soft_overlong_punishment(...)` from trl.rewards."""
from reward_helpers import make_length_penalty

soft = make_length_penalty(max_chars=30, cache=10)
