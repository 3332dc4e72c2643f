"""The battle, by concern: the plans (`plans`, `plan_decision`), whether a locked battle can be ruled
(`preconditions`), its pure resolution (`resolution`), applying it (`outcome`), the winner's cleanup
decisions (`cleanup`) and the `resolve-battle` handler (`ruling`)."""
