# --match: the pattern as rreduce and roracle read it (PCRE2 through ctypes, else Python's re).
"""--match as rreduce and roracle read it."""

import re


class _Found(object):
    """What a Pattern's search returns: the matched text, as re's match.group(0)."""

    def __init__(self, text):
        self.text = text

    def group(self, index=0):  # pylint: disable=unused-argument
        return self.text


class Pattern(object):
    """--match as rreduce and roracle read it: PCRE2 (Debian's libpcre2-8, the library they
    link), multi-line, on the UTF-8 bytes, with the same backtracking limit; Python's re only
    where that library cannot be loaded (the two agree on everyday patterns)."""

    MULTILINE = 0x00000400
    MATCH_LIMIT = 10 * 1000 * 1000  # as support/pattern.c
    _lib = None

    @classmethod
    def library(cls):
        if cls._lib is None:
            cls._lib = False
            try:
                import ctypes  # pylint: disable=import-outside-toplevel
                import ctypes.util  # pylint: disable=import-outside-toplevel
                lib = ctypes.CDLL(ctypes.util.find_library("pcre2-8") or "libpcre2-8.so.0")
                size_t, vp = ctypes.c_size_t, ctypes.c_void_p
                lib.pcre2_compile_8.restype = vp
                lib.pcre2_compile_8.argtypes = [ctypes.c_char_p, size_t, ctypes.c_uint32,
                                                ctypes.POINTER(ctypes.c_int),
                                                ctypes.POINTER(size_t), vp]
                lib.pcre2_match_data_create_from_pattern_8.restype = vp
                lib.pcre2_match_data_create_from_pattern_8.argtypes = [vp, vp]
                lib.pcre2_match_data_free_8.argtypes = [vp]
                lib.pcre2_match_8.restype = ctypes.c_int
                lib.pcre2_match_8.argtypes = [vp, ctypes.c_char_p, size_t, size_t,
                                              ctypes.c_uint32, vp, vp]
                lib.pcre2_get_ovector_pointer_8.restype = ctypes.POINTER(size_t)
                lib.pcre2_get_ovector_pointer_8.argtypes = [vp]
                lib.pcre2_match_context_create_8.restype = vp
                lib.pcre2_match_context_create_8.argtypes = [vp]
                lib.pcre2_set_match_limit_8.argtypes = [vp, ctypes.c_uint32]
                lib.pcre2_get_error_message_8.argtypes = [ctypes.c_int, ctypes.c_char_p, size_t]
                cls._lib = (ctypes, lib)
            except (OSError, AttributeError):
                pass
        return cls._lib

    def __init__(self, source):
        self.source = source
        loaded = self.library()
        if not loaded:
            try:
                self._re = re.compile(source, re.MULTILINE)
            except re.error as e:
                raise ValueError(str(e))
            return
        ctypes, lib = loaded
        self._re = None
        code, at = ctypes.c_int(0), ctypes.c_size_t(0)
        raw = source.encode("utf-8", "surrogateescape")
        self._code = lib.pcre2_compile_8(raw, len(raw), self.MULTILINE, ctypes.byref(code),
                                         ctypes.byref(at), None)
        if not self._code:
            msg = ctypes.create_string_buffer(256)
            lib.pcre2_get_error_message_8(code.value, msg, 256)
            raise ValueError("at offset %d: %s" % (at.value, msg.value.decode("utf-8", "replace")))
        self._limits = lib.pcre2_match_context_create_8(None)
        lib.pcre2_set_match_limit_8(self._limits, self.MATCH_LIMIT)

    def search(self, text):
        """A _Found (or re match) for the first match in text, or None."""
        if self._re is not None:
            return self._re.search(text)
        _, lib = self.library()
        raw = text.encode("utf-8", "surrogateescape")
        md = lib.pcre2_match_data_create_from_pattern_8(self._code, None)
        try:
            if lib.pcre2_match_8(self._code, raw, len(raw), 0, 0, md, self._limits) < 0:
                return None
            ov = lib.pcre2_get_ovector_pointer_8(md)
            return _Found(raw[ov[0]:ov[1]].decode("utf-8", "replace"))
        finally:
            lib.pcre2_match_data_free_8(md)
