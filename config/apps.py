"""App configs of the project itself."""

from django.contrib.staticfiles.apps import StaticFilesConfig


class StaticFiles(StaticFilesConfig):
    # three's build folder also holds the CommonJS, WebGPU and TSL builds;
    # the pages load three.module.js and three.core.js only. Two geometries
    # import addon folders that are not collected (settings.STATICFILES_DIRS):
    # collectstatic refuses a module whose import it cannot resolve.
    ignore_patterns = [
        *StaticFilesConfig.ignore_patterns,
        "three.cjs",
        "three.tsl.js",
        "three.webgpu*.js",
        "ConvexGeometry.js",
        "TextGeometry.js",
    ]
