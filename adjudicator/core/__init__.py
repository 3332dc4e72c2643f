"""The core everything imports: vocabulary, errors, catalog, registers, tracing, the domain model
(snapshot, action, context, rulebook types) and results. It imports no rule module."""
