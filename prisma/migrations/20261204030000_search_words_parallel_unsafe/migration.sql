-- crossroads_trace_words catches tsvector's "word is too long" in a block, which starts a
-- subtransaction, and PostgreSQL refuses those during a parallel query, in the leader as
-- in the workers ("cannot start subtransactions during a parallel operation"). Marked
-- parallel unsafe, a query calling it is planned without parallel workers. The indexer
-- never ran it in parallel (an INSERT); a recount over many traces could have.
ALTER FUNCTION "crossroads_trace_words"(text) PARALLEL UNSAFE;
