ENV_TABLE = ()
def register_envs(): pass
