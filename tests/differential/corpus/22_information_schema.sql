-- information_schema.tables and information_schema.columns over the star schema's tables (DuckDB
-- holds them as tables, shears as external tables: both are BASE TABLEs).

SELECT table_schema, table_name, table_type FROM information_schema.tables ORDER BY table_name;

SELECT table_name, column_name, ordinal_position, data_type, is_nullable FROM information_schema.columns WHERE table_name IN ('store', 'item', 'date_dim', 'promotion') ORDER BY table_name, ordinal_position;

SELECT t.table_name, count(*) FROM information_schema.tables t JOIN information_schema.columns c ON c.table_name = t.table_name WHERE t.table_name NOT LIKE 'store_%' GROUP BY 1 ORDER BY 1;
