"""The rule modules, by area. Each ends with its declaration (a `RuleModule` named `DECLARED`); the composition root
(`adjudicator.system`) lists them and builds the one rulebook. They import the core and each other in
one direction only, never validation, the engine or the composition root."""
