"""CSV export of any list and CSV import (preview, then confirm, all or nothing) of chosen lists.

The CRUD helper wires these to `<list path>/export` and `<list path>/import…`; a resource only says
which columns it imports (`CsvImport`). Rows are checked with the resource's own create schema and
create service, so an imported row obeys exactly the rules of the API's POST.

Import flow (state in the tenant's import rows: the model and the worker actor belong to an app,
tenants/imports, which plugs them in with `register_store`, so the kit imports no domain app):
1. upload: the file is parsed, stored under the tenant's prefix, and every row is checked by a dry
   run (written inside a transaction that is rolled back): nothing is kept. The answer is the preview.
2. confirm: the same rows are written in one transaction; any failing row rolls back every row.
Files over `SYNC_ROW_LIMIT` rows are checked and written by the worker; the client polls the import.

One module a concern: export; targets (what a resource imports, where jobs are kept); reading (a
file); rows (checking and writing them); flow (upload, confirm, the worker's job); schemas.
"""

from core.csv_io.export import (
    CSV_RESPONSE,
    EXPORT_LIMIT,
    csv_text_response,
    export_header,
    export_lines,
    export_response,
)
from core.csv_io.flow import (
    SYNC_ROW_LIMIT,
    confirm_import,
    get_import,
    import_document,
    import_stuck,
    job_lock_key,
    rearm_import,
    run_job,
    start_import,
)
from core.csv_io.reading import read_table
from core.csv_io.rows import process_rows
from core.csv_io.schemas import DataImportOut, ImportRowError
from core.csv_io.targets import (
    CsvImport,
    ImportStatus,
    ImportStore,
    ImportTarget,
    Lookup,
    describe_columns,
    register_store,
    register_target,
    target_for,
)

__all__ = [
    "CSV_RESPONSE",
    "EXPORT_LIMIT",
    "SYNC_ROW_LIMIT",
    "CsvImport",
    "DataImportOut",
    "ImportRowError",
    "ImportStatus",
    "ImportStore",
    "ImportTarget",
    "Lookup",
    "confirm_import",
    "csv_text_response",
    "describe_columns",
    "export_header",
    "export_lines",
    "export_response",
    "get_import",
    "import_document",
    "import_stuck",
    "job_lock_key",
    "process_rows",
    "read_table",
    "rearm_import",
    "register_store",
    "register_target",
    "run_job",
    "start_import",
    "target_for",
]
