"""Streams and events (CuPy's ``cupy.cuda.Stream`` and ``Event``). Every operation runs on
the current stream of its device; the host waits only when data must come back."""

from .. import _core
from ._device import get_device_id


class Stream:
    """A CUDA stream of the current device: work queued on it runs in order. ``with
    stream:`` makes it current; ``non_blocking=True`` streams do not wait for the default
    stream (and it does not wait for them)."""

    def __init__(self, null=False, non_blocking=False, ptr=None):
        device = get_device_id()
        if null:
            self._stream = _core._cuda._Stream.null(device)
        else:
            self._stream = _core._cuda._Stream.create(device, bool(non_blocking))
        self.non_blocking = bool(non_blocking)
        self._previous = []

    @classmethod
    def _wrap(cls, handle):
        self = cls.__new__(cls)
        self._stream = handle
        self.non_blocking = False
        self._previous = []
        return self

    @property
    def ptr(self):
        return self._stream.ptr

    @property
    def device_id(self):
        return self._stream.device_id

    @property
    def done(self):
        """Whether all work queued on the stream has finished."""
        return self._stream.done

    def synchronize(self):
        self._stream.synchronize()

    def use(self):
        """Makes this the current stream of its device."""
        self._stream.make_current()
        return self

    def record(self, event=None):
        """Records `event` (a new one when None) on this stream and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        """Work queued on this stream from now on waits for `event`."""
        _core._cuda.wait_event(self._stream, event._event)

    def __enter__(self):
        self._previous.append(_core._cuda._Stream.current(self.device_id))
        self._stream.make_current()
        return self

    def __exit__(self, *exc):
        self._previous.pop().make_current()

    def __del__(self):
        stream = getattr(self, "_stream", None)
        if stream is not None:
            try:
                stream.destroy()
            except Exception:  # noqa: BLE001 - never raise from a finalizer
                pass

    def __eq__(self, other):
        return isinstance(other, Stream) and (self.ptr, self.device_id) == (other.ptr,
                                                                             other.device_id)

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __repr__(self):
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


def get_current_stream(device_id=None):
    """The current stream of a CUDA device (the current one when None)."""
    device = get_device_id() if device_id is None else int(device_id)
    return Stream._wrap(_core._cuda._Stream.current(device))


class Event:
    """A CUDA event: a point in a stream's work. ``disable_timing=True`` events cannot be
    timed; ``block`` makes synchronize() sleep rather than spin."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess:
            raise NotImplementedError("[Event] interprocess events are not supported")
        self._event = _core._cuda._Event(get_device_id(), not disable_timing, bool(block))

    def record(self, stream=None):
        """Records the event on `stream` (the current stream when None)."""
        if stream is None:
            stream = get_current_stream(self.device_id)
        self._event.record(stream._stream)

    def synchronize(self):
        self._event.synchronize()

    @property
    def done(self):
        return self._event.done

    def query(self):
        return self._event.done

    @property
    def ptr(self):
        return self._event.ptr

    @property
    def device_id(self):
        return self._event.device_id

    def __repr__(self):
        return f"<Event {self.ptr:#x} (device {self.device_id})>"


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events. On the simulator the figure means
    nothing: it times the simulation, not a GPU."""
    return _core._cuda.elapsed_ms(start_event._event, end_event._event)
