def test_platform_folder_does_not_shadow_the_stdlib_module() -> None:
    import platform
    import uuid

    assert platform.system()  # would raise AttributeError if platform/ were a package on the path
    assert uuid.uuid4()
