"""A tabletop with blocks and bowls, simulated with pybullet (Code as Policies' workspace).

* :mod:`.workspace`: bounds, the named corner and side positions, colours and sizes;
* :mod:`.scene`: a scene as plain data (objects, poses, what is held), and its setup;
* :mod:`.layouts`: seeded starting layouts;
* :mod:`.physics`: the pybullet world, the kinematic gripper and settling;
* :mod:`.camera`: camera images of a scene.

Nothing here knows of tools or tasks.
"""
