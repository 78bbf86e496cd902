"""A spreadsheet exported as Drive exports it: CSV, TSV, XLSX, ODS, zipped HTML or PDF.

CSV and TSV hold the first sheet's displayed values, up to its last non-empty row and column.
The other formats hold every sheet: XLSX and ODS as minimal, valid packages (values only: text
as text, numbers and booleans as such), zipped HTML as one table per sheet, PDF as one page of
text per sheet. Each answer is bytes of its content type, made by the standard library alone.
"""

from __future__ import annotations

import csv
import html
import io
import zipfile
from collections.abc import Callable
from xml.sax.saxutils import escape

from toolgym.families.google_sheets.world.a1 import column_letters
from toolgym.families.google_sheets.world.sheet import Spreadsheet, Worksheet

_FIXED = (2026, 1, 1, 0, 0, 0)  # zip entries' time: the same bytes on every machine


def _rows(book: Spreadsheet, ws: Worksheet) -> list[list[str]]:
    rows, cols = ws.extent()
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            shown = book.rendered(ws, r, c, "FORMATTED_VALUE")
            line.append("" if shown is None else str(shown))
        out.append(line)
    return out


def _values(book: Spreadsheet, ws: Worksheet) -> list[list[object]]:
    rows, cols = ws.extent()
    return [
        [book.rendered(ws, r, c, "UNFORMATTED_VALUE") for c in range(cols)] for r in range(rows)
    ]


def _delimited(book: Spreadsheet, delimiter: str) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerows(_rows(book, book.sheets[0]))
    return buffer.getvalue().encode("utf-8")


def _zip(entries: list[tuple[str, str]], stored_first: bool = False) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for k, (name, text) in enumerate(entries):
            info = zipfile.ZipInfo(name, _FIXED)
            info.compress_type = (
                zipfile.ZIP_STORED if stored_first and k == 0 else zipfile.ZIP_DEFLATED
            )
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def _xlsx(book: Spreadsheet) -> bytes:
    sheets = []
    for n, ws in enumerate(book.sheets, 1):
        rows = []
        for r, line in enumerate(_values(book, ws), 1):
            cells = []
            for c, value in enumerate(line):
                ref = f"{column_letters(c)}{r}"
                if value is None or value == "":
                    continue
                if isinstance(value, bool):
                    cells.append(f'<c r="{ref}" t="b"><v>{int(value)}</v></c>')
                elif isinstance(value, int | float):
                    cells.append(f'<c r="{ref}"><v>{value!r}</v></c>')
                else:
                    cells.append(
                        f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'
                    )
            rows.append(f'<row r="{r}">{"".join(cells)}</row>')
        sheets.append(
            (
                f"xl/worksheets/sheet{n}.xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                f"<sheetData>{''.join(rows)}</sheetData></worksheet>",
            )
        )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    sheet_type = f"{rel}/worksheet"
    names = "".join(
        f'<sheet name="{escape(ws.title, {chr(34): "&quot;"})}" sheetId="{n}" r:id="rId{n}"/>'
        for n, ws in enumerate(book.sheets, 1)
    )
    links = "".join(
        f'<Relationship Id="rId{n}" Type="{sheet_type}" Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, len(book.sheets) + 1)
    )
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for n in range(1, len(book.sheets) + 1)
    )
    return _zip(
        [
            (
                "[Content_Types].xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats'
                f'-officedocument.spreadsheetml.sheet.main+xml"/>{overrides}</Types>',
            ),
            (
                "_rels/.rels",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/>'
                "</Relationships>",
            ),
            (
                "xl/workbook.xml",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>{names}</sheets></workbook>',
            ),
            (
                "xl/_rels/workbook.xml.rels",
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                f"{links}</Relationships>",
            ),
            *sheets,
        ]
    )


def _ods(book: Spreadsheet) -> bytes:
    tables = []
    for ws in book.sheets:
        rows = []
        for line in _values(book, ws):
            cells = []
            for value in line:
                if value is None or value == "":
                    cells.append("<table:table-cell/>")
                elif isinstance(value, int | float) and not isinstance(value, bool):
                    cells.append(
                        f'<table:table-cell office:value-type="float" office:value="{value!r}">'
                        f"<text:p>{value!r}</text:p></table:table-cell>"
                    )
                else:
                    cells.append(
                        '<table:table-cell office:value-type="string">'
                        f"<text:p>{escape(str(value))}</text:p></table:table-cell>"
                    )
            rows.append(f"<table:table-row>{''.join(cells)}</table:table-row>")
        name = escape(ws.title, {'"': "&quot;"})
        tables.append(f'<table:table table:name="{name}">{"".join(rows)}</table:table>')
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f"<office:body><office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body>"
        "</office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
        'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
    )
    return _zip(
        [
            ("mimetype", "application/vnd.oasis.opendocument.spreadsheet"),
            ("content.xml", content),
            ("META-INF/manifest.xml", manifest),
        ],
        stored_first=True,
    )


def _zipped_html(book: Spreadsheet) -> bytes:
    pages = []
    for ws in book.sheets:
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in line) + "</tr>"
            for line in _rows(book, ws)
        )
        pages.append(
            (
                f"{ws.title}.html",
                f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{html.escape(ws.title)}'
                f"</title></head><body><table>{body}</table></body></html>",
            )
        )
    return _zip(pages)


def _pdf(book: Spreadsheet) -> bytes:
    """One page of text per sheet: its title, then its rows, tab-separated (Latin-1 only)."""
    pages = []
    for ws in book.sheets:
        lines = [ws.title, *("\t".join(line) for line in _rows(book, ws))][:60]
        text = "".join(f"({_pdf_text(line)}) Tj T* " for line in lines)
        pages.append(f"BT /F1 10 Tf 12 TL 40 800 Td {text}ET")
    objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{4 + 2 * k} 0 R" for k in range(len(pages)))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>")
    objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for k, stream in enumerate(pages):
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * k} 0 R >>"
        )
        data = stream.encode("latin-1", "replace")
        objects.append(f"<< /Length {len(data)} >>\nstream\n{stream}\nendstream")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n{body}\nendobj\n".encode("latin-1", "replace"))
    start = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{start}\n%%EOF\n".encode()
    )
    return out.getvalue()


def _pdf_text(line: str) -> str:
    text = line.encode("latin-1", "replace").decode("latin-1")[:200]
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


EXPORTS: dict[str, Callable[[Spreadsheet], bytes]] = {
    "text/csv": lambda book: _delimited(book, ","),
    "text/tab-separated-values": lambda book: _delimited(book, "\t"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": _xlsx,
    "application/vnd.oasis.opendocument.spreadsheet": _ods,
    "application/zip": _zipped_html,
    "application/pdf": _pdf,
}
"""Every export format by its MIME type (gspread's ``ExportFormat``)."""


def export(book: Spreadsheet, mime: str) -> bytes:
    """The bytes of ``book`` exported as ``mime`` (one of :data:`EXPORTS`)."""
    return EXPORTS[mime](book)
