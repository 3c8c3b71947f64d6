"""A minimal consumer of the Arrow C stream interface, written from the specification with
ctypes: it takes a PyCapsule from __arrow_c_stream__, reads the schema and every array, and
decodes the buffers of the formats shears produces into Python values."""
import ctypes
import datetime
import decimal
import struct


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                    ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                  ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _bit(buffer, i):
    return (ctypes.cast(buffer, ctypes.POINTER(ctypes.c_uint8))[i // 8] >> (i % 8)) & 1


def _column(schema, array):
    fmt = schema.format.decode()
    n, offset = array.length, array.offset
    buffers = array.buffers
    validity = buffers[0]
    assert array.null_count == 0 or validity, "nulls without a validity bitmap"
    values = []
    for i in range(offset, offset + n):
        if validity and not _bit(validity, i):
            values.append(None)
            continue
        if fmt == "b":
            values.append(bool(_bit(buffers[1], i)))
        elif fmt in ("i", "l", "g", "f", "tdD", "tsu:"):
            code = {"i": "i", "l": "q", "g": "d", "f": "f", "tdD": "i", "tsu:": "q"}[fmt]
            size = struct.calcsize(code)
            raw = ctypes.string_at(buffers[1] + i * size, size)
            value = struct.unpack("<" + code, raw)[0]
            if fmt == "tdD":
                value = datetime.date(1970, 1, 1) + datetime.timedelta(days=value)
            elif fmt == "tsu:":
                value = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=value)
            values.append(value)
        elif fmt.startswith("d:"):
            precision, scale = (int(x) for x in fmt[2:].split(",")[:2])
            raw = ctypes.string_at(buffers[1] + i * 16, 16)
            unscaled = int.from_bytes(raw, "little", signed=True)
            values.append(decimal.Decimal(unscaled).scaleb(-scale))
        elif fmt in ("u", "z"):
            offsets = ctypes.cast(buffers[1], ctypes.POINTER(ctypes.c_int32))
            start, end = offsets[i], offsets[i + 1]
            raw = ctypes.string_at(buffers[2] + start, end - start) if end > start else b""
            values.append(raw.decode() if fmt == "u" else raw)
        else:
            raise AssertionError(f"unexpected format {fmt}")
    return values


def read_stream(capsule):
    """(names, formats, rows, number of arrays) of the stream in `capsule`; releases it."""
    stream = ArrowArrayStream.from_address(_get_pointer(capsule, b"arrow_array_stream"))
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    assert schema.format == b"+s"
    children = [schema.children[i].contents for i in range(schema.n_children)]
    names = [c.name.decode() for c in children]
    formats = [c.format.decode() for c in children]
    rows, arrays = [], 0
    while True:
        array = ArrowArray()
        assert stream.get_next(ctypes.byref(stream), ctypes.byref(array)) == 0
        if not array.release:
            break
        arrays += 1
        assert array.n_children == len(children) and array.length > 0
        columns = [_column(children[c], array.children[c].contents)
                   for c in range(array.n_children)]
        rows.extend(zip(*columns))
        array.release(ctypes.byref(array))
        assert not array.release
    schema.release(ctypes.byref(schema))
    assert not schema.release
    stream.release(ctypes.byref(stream))
    assert not stream.release
    return names, formats, rows, arrays
