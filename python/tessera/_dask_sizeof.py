"""The ``dask.sizeof`` entry point of tessera's package. Dask loads it while importing
itself, so it imports nothing of Dask's and registers lazily: the first tessera array Dask
measures registers the rule, and with it tessera's functions and serializers in Dask's
dispatch (tessera.dask), Dask being whole by then."""


def sizeof_plugin(sizeof):
    """A tessera array's size is its bytes, on whichever device, counted without touching
    the data."""
    @sizeof.register_lazy("tessera")
    def _register():
        import tessera
        import tessera.dask  # noqa: F401

        @sizeof.register(tessera.ndarray)
        def _sizeof(x):
            return int(x.nbytes)
