// Generated from fixtures/gitignore/ by scripts/build-templates.ts: do not edit by hand.
// Regenerate with `npx tsx scripts/build-templates.ts` after changing a template.

export interface GitignoreTemplate {
  readonly key: string;
  readonly name: string;
  readonly content: string;
}

/** In GitLab's order: the language templates by name, then the Global/ ones by name. */
export const GITIGNORE_TEMPLATES: readonly GitignoreTemplate[] = [
  {
    key: 'Android',
    name: 'Android',
    content: '# Android: Gradle output, local SDK paths, packages, signing keys and IDE state\n.gradle/\nbuild/\n/captures/\nlocal.properties\n\n# Packages and Dalvik bytecode\n*.apk\n*.aab\n*.ap_\n*.dex\n\n# Signing keys\n*.jks\n*.keystore\n\n# Native build output\n.externalNativeBuild/\n.cxx/\n\n# Heap dumps\n*.hprof\n\n# Android Studio per-user state\n*.iml\n/.idea/workspace.xml\n/.idea/caches/\n/.idea/libraries/\n/.idea/navEditor.xml\n/.idea/assetWizardSettings.xml\n',
  },
  {
    key: 'C',
    name: 'C',
    content: '# C: object files, libraries, executables, debug data and coverage output\n*.o\n*.obj\n*.ko\n*.elf\n*.d\n\n# Precompiled headers\n*.gch\n*.pch\n\n# Static and shared libraries\n*.a\n*.lib\n*.so\n*.so.*\n*.dylib\n*.dll\n\n# Executables\n*.exe\n*.out\n*.app\n\n# Preprocessor output, linker maps and stack usage\n*.i\n*.map\n*.su\n\n# Debug information\n*.dSYM/\n*.idb\n*.pdb\n\n# gcov coverage data\n*.gcno\n*.gcda\n*.gcov\n\n# Out-of-source build directory\n/build/\n',
  },
  {
    key: 'C++',
    name: 'C++',
    content: '# C++: object files, libraries, executables, precompiled headers and debug data\n*.o\n*.obj\n*.lo\n*.slo\n*.d\n\n# Precompiled headers and modules\n*.gch\n*.pch\n*.pcm\n*.ifc\n\n# Static and shared libraries\n*.a\n*.la\n*.lai\n*.lib\n*.so\n*.so.*\n*.dylib\n*.dll\n\n# Executables\n*.exe\n*.out\n*.app\n\n# Debug information\n*.dSYM/\n*.ilk\n*.pdb\n\n# Coverage data\n*.gcno\n*.gcda\n*.gcov\n\n# Out-of-source build directories\n/build/\n/out/\n',
  },
  {
    key: 'CMake',
    name: 'CMake',
    content: '# CMake: generated build trees, caches and install manifests\nCMakeCache.txt\nCMakeFiles/\nCMakeScripts/\ncmake_install.cmake\ninstall_manifest.txt\nCTestTestfile.cmake\nTesting/\n_deps/\ncompile_commands.json\n\n# Per-user presets and Qt Creator settings\nCMakeUserPresets.json\nCMakeLists.txt.user\n\n# Common build directory names\n/build/\n/cmake-build-*/\n',
  },
  {
    key: 'Clojure',
    name: 'Clojure',
    content: '# Clojure: Leiningen and tools.deps output, REPL ports and tool caches\n/target/\n/classes/\n/checkouts/\nprofiles.clj\npom.xml.asc\n*.jar\n*.class\n\n# Leiningen and tools.deps state\n/.lein-*\n/.cpcache/\n/.nrepl-port\n\n# Linter, language server and ClojureScript caches\n/.clj-kondo/.cache/\n/.lsp/.cache/\n/.shadow-cljs/\n',
  },
  {
    key: 'Composer',
    name: 'Composer',
    content: '# Composer: installed PHP packages and credentials\n/vendor/\ncomposer.phar\nauth.json\n\n# Libraries usually leave the lock file out; applications commit it\n# composer.lock\n',
  },
  {
    key: 'Dart',
    name: 'Dart',
    content: '# Dart: pub and build tool state, build output and generated API docs\n.dart_tool/\n.packages\nbuild/\n\n# Output of dart doc\ndoc/api/\n\n# Packages leave the lock file out; applications commit it\n# pubspec.lock\n',
  },
  {
    key: 'Elixir',
    name: 'Elixir',
    content: '# Elixir: Mix build output, fetched dependencies, docs, coverage and crash dumps\n/_build/\n/deps/\n/doc/\n/cover/\n/.fetch\nerl_crash.dump\n\n# Archives built by mix archive.build\n*.ez\n\n# Language server and temporary files\n/.elixir_ls/\n/tmp/\n\n# Phoenix compiled static assets\n/priv/static/assets/\n',
  },
  {
    key: 'Elm',
    name: 'Elm',
    content: '# Elm: compiler artifacts and REPL scratch files\nelm-stuff/\nrepl-temp-*\n',
  },
  {
    key: 'Erlang',
    name: 'Erlang',
    content: '# Erlang: rebar3 build output, compiled BEAM files and crash dumps\n_build/\n_checkouts/\n.rebar3/\n*.beam\n*.o\n*.plt\n\n# Crash dumps and node cookie\nerl_crash.dump\nrebar3.crashdump\n.erlang.cookie\n\n# Test output\n.eunit/\nlogs/\n',
  },
  {
    key: 'Flutter',
    name: 'Flutter',
    content: '# Flutter: Dart tool state, platform build output and generated plugin files\n.dart_tool/\n.pub-cache/\n.pub/\nbuild/\ncoverage/\n.flutter-plugins\n.flutter-plugins-dependencies\n\n# Android\n**/android/.gradle\n**/android/local.properties\n**/android/key.properties\n**/android/**/GeneratedPluginRegistrant.java\n\n# iOS and macOS\n**/ios/Pods/\n**/ios/.symlinks/\n**/ios/Flutter/ephemeral/\n**/ios/Flutter/Generated.xcconfig\n**/ios/Flutter/flutter_export_environment.sh\n**/ios/Runner/GeneratedPluginRegistrant.*\n**/macos/Flutter/ephemeral/\n\n# Linux and Windows\n**/linux/flutter/ephemeral/\n**/windows/flutter/ephemeral/\n\n# Symbol files from obfuscated builds\napp.*.symbols\napp.*.map.json\n',
  },
  {
    key: 'Go',
    name: 'Go',
    content: '# Go: compiled binaries, test binaries, profiles and workspace files\n*.exe\n*.exe~\n*.dll\n*.so\n*.dylib\n\n# Binaries built by go test -c and coverage profiles\n*.test\n*.out\ncoverage.txt\n\n# Output directories\n/bin/\n/dist/\n\n# Local workspace files\ngo.work\ngo.work.sum\n\n# Uncomment when dependencies are not vendored into the repository\n# vendor/\n',
  },
  {
    key: 'Gradle',
    name: 'Gradle',
    content: '# Gradle: build directories, project cache and local settings\n.gradle/\nbuild/\n\n# The wrapper jar is needed to run ./gradlew and is committed\n!gradle/wrapper/gradle-wrapper.jar\n\n# Source folders that happen to be named build are kept\n!**/src/main/**/build/\n!**/src/test/**/build/\n\n# Task name cache and per-user settings\n.gradletasknamecache\ngradle-app.setting\nlocal.properties\n',
  },
  {
    key: 'Haskell',
    name: 'Haskell',
    content: '# Haskell: Cabal and Stack build directories, GHC output and profiling data\ndist/\ndist-newstyle/\n.stack-work/\ncabal.project.local\ncabal.project.local~\n.ghc.environment.*\n\n# GHC object and interface files\n*.o\n*.hi\n*.dyn_o\n*.dyn_hi\n*.p_o\n*.p_hi\n\n# Profiling and coverage output\n*.prof\n*.hp\n*.aux\n*.eventlog\n*.tix\n.hpc/\n',
  },
  {
    key: 'Java',
    name: 'Java',
    content: '# Java: compiled classes, packaged archives and JVM crash logs\n*.class\n\n# Packaged archives\n*.jar\n*.war\n*.ear\n*.nar\n*.jmod\n\n# Crash and replay logs written by the JVM\nhs_err_pid*.log\nreplay_pid*.log\n\n# Output of javac and IDE compilers\n/out/\n/bin/\n\n# Logs\n*.log\n',
  },
  {
    key: 'Jekyll',
    name: 'Jekyll',
    content: '# Jekyll: generated site, caches and installed gems\n_site/\n.sass-cache/\n.jekyll-cache/\n.jekyll-metadata\n.bundle/\nvendor/\n',
  },
  {
    key: 'Julia',
    name: 'Julia',
    content: '# Julia: coverage and allocation files, built docs and package build output\n*.jl.cov\n*.jl.*.cov\n*.jl.mem\n\n# Packages usually leave the manifest out; applications commit it\n# Manifest.toml\n\n# Documenter output\n/docs/build/\n/docs/Manifest.toml\n\n# Files written by deps/build.jl\n/deps/deps.jl\n/deps/build.log\n/deps/downloads/\n/deps/usr/\n/deps/src/\n',
  },
  {
    key: 'Kotlin',
    name: 'Kotlin',
    content: '# Kotlin: compiler output, Gradle state and Kotlin daemon data\n*.class\n*.jar\n\n# Build directories\nbuild/\nout/\n\n# Gradle and Kotlin project-local state\n.gradle/\n.kotlin/\nlocal.properties\n\n# JVM crash logs\nhs_err_pid*.log\n',
  },
  {
    key: 'Laravel',
    name: 'Laravel',
    content: '# Laravel: dependencies, compiled assets, caches and environment files\n/vendor/\n/node_modules/\n\n# Compiled frontend assets and storage links\n/public/build/\n/public/hot\n/public/storage\n/storage/*.key\n\n# Environment files\n.env\n.env.backup\n.env.production\n\n# Test caches\n.phpunit.result.cache\n/.phpunit.cache/\n\n# Homestead and package credentials\nHomestead.json\nHomestead.yaml\nauth.json\n\n# Logs\nnpm-debug.log\nyarn-error.log\n',
  },
  {
    key: 'Lua',
    name: 'Lua',
    content: '# Lua: compiled chunks, LuaRocks trees and native modules\nluac.out\n*.luac\n\n# LuaRocks\n/lua_modules/\n/.luarocks/\n*.src.rock\n\n# Compiled C modules\n*.o\n*.so\n*.dll\n*.a\n',
  },
  {
    key: 'Maven',
    name: 'Maven',
    content: '# Maven: target directories, release plugin files and wrapper downloads\ntarget/\n\n# Files left by the release and versions plugins\npom.xml.tag\npom.xml.releaseBackup\npom.xml.versionsBackup\npom.xml.next\nrelease.properties\n\n# Generated POMs and build metadata\ndependency-reduced-pom.xml\n.flattened-pom.xml\nbuildNumber.properties\n\n# Maven wrapper download and build timing data\n.mvn/wrapper/maven-wrapper.jar\n.mvn/timing.properties\n',
  },
  {
    key: 'Node',
    name: 'Node',
    content: '# Node.js projects: installed packages, build output, caches, coverage and logs\nnode_modules/\njspm_packages/\n\n# Yarn Berry keeps its cache and install state under .yarn; keep the committed parts\n.pnp.*\n.yarn/*\n!.yarn/patches\n!.yarn/plugins\n!.yarn/releases\n!.yarn/sdks\n!.yarn/versions\n\n# Build output of bundlers and frameworks\ndist/\nbuild/\nout/\n.next/\n.nuxt/\n.output/\n.svelte-kit/\n*.tsbuildinfo\n\n# Tool caches\n.npm/\n.cache/\n.parcel-cache/\n.turbo/\n.vite/\n.eslintcache\n.stylelintcache\n\n# Test coverage\ncoverage/\n.nyc_output/\n*.lcov\n\n# Logs\nlogs/\n*.log\nnpm-debug.log*\nyarn-debug.log*\nyarn-error.log*\npnpm-debug.log*\n\n# Local environment files (keep the example)\n.env\n.env.*\n!.env.example\n\n# Tarballs made by npm pack\n*.tgz\n',
  },
  {
    key: 'Objective-C',
    name: 'Objective-C',
    content: '# Objective-C: Xcode build products, user state and dependency managers\nbuild/\nDerivedData/\nxcuserdata/\n*.xccheckout\n*.xcscmblueprint\n*.moved-aside\n*.hmap\n*.ipa\n*.dSYM\n*.dSYM.zip\n\n# Per-user project state of old Xcode versions; the defaults stay\n*.pbxuser\n!default.pbxuser\n*.mode1v3\n!default.mode1v3\n*.mode2v3\n!default.mode2v3\n*.perspectivev3\n!default.perspectivev3\n\n# CocoaPods and Carthage; some teams commit Pods/ instead\n# Pods/\nCarthage/Build/\n',
  },
  {
    key: 'Perl',
    name: 'Perl',
    content: '# Perl: module build output, local library trees and profiler data\n/blib/\n/_build/\n/Build\n/Build.bat\n/Makefile\n/Makefile.old\n/MYMETA.*\n/pm_to_blib\n\n# Carton and local::lib installs\n/local/\n\n# Coverage and profiler output\n/cover_db/\n/nytprof/\nnytprof.out\n\n# Compiled XS objects and release tarballs\n*.o\n*.bs\n*.tar.gz\n',
  },
  {
    key: 'Python',
    name: 'Python',
    content: '# Python: bytecode, virtual environments, packaging artifacts and tool caches\n__pycache__/\n*.py[cod]\n*$py.class\n\n# Compiled extension modules\n*.so\n*.pyd\n\n# Packaging and distribution\nbuild/\ndist/\nsdist/\nwheels/\n.eggs/\n*.egg\n*.egg-info/\nMANIFEST\n\n# Virtual environments\n.venv/\nvenv/\nenv/\nENV/\n\n# Tests and coverage\n.pytest_cache/\n.tox/\n.nox/\n.hypothesis/\n.coverage\n.coverage.*\ncoverage.xml\nhtmlcov/\n\n# Type checkers and linters\n.mypy_cache/\n.pyre/\n.pytype/\n.ruff_cache/\n\n# Jupyter\n.ipynb_checkpoints/\n\n# Local settings\n.env\ninstance/\n',
  },
  {
    key: 'R',
    name: 'R',
    content: '# R: session history, workspace images, RStudio state and rendered documents\n.Rhistory\n.Rapp.history\n.RData\n.RDataTmp\n.Ruserdata\n.Renviron\n\n# RStudio project state\n.Rproj.user/\n\n# Package build and check output\n/*.tar.gz\n/*.Rcheck/\n*-Ex.R\n\n# renv library\nrenv/library/\nrenv/staging/\n\n# knitr and R Markdown intermediates\n*_cache/\n*.utf8.md\n*.knit.md\nrsconnect/\n',
  },
  {
    key: 'Rails',
    name: 'Rails',
    content: '# Ruby on Rails applications: logs, temporary files, uploads, compiled assets and secrets\n/.bundle/\n/vendor/bundle/\n\n# Logs and temporary files; the .keep files hold the directories in place\n/log/*\n!/log/.keep\n/tmp/*\n!/tmp/.keep\n/tmp/pids/*\n!/tmp/pids/.keep\n\n# Active Storage files and uploads\n/storage/*\n!/storage/.keep\n/public/uploads/\n\n# Compiled assets\n/public/assets/\n/public/packs/\n/public/packs-test/\n/app/assets/builds/*\n!/app/assets/builds/.keep\n/node_modules/\n/yarn-error.log\n\n# Encryption keys for credentials\n/config/master.key\n/config/credentials/*.key\n\n# Local databases\n/db/*.sqlite3\n/db/*.sqlite3-*\n\n# Tests, debugging and environment\n/coverage/\n.byebug_history\n.env*\n',
  },
  {
    key: 'Ruby',
    name: 'Ruby',
    content: '# Ruby: built gems, Bundler state, generated documentation and test output\n*.gem\n*.rbc\n/pkg/\n/tmp/\n/.config\n/InstalledFiles\n\n# Bundler\n/.bundle/\n/vendor/bundle/\n\n# Tests and coverage\n/coverage/\n/spec/reports/\n/spec/examples.txt\n/test/tmp/\n/test/version_tmp/\n\n# Documentation\n/.yardoc/\n/_yardoc/\n/doc/\n/rdoc/\n\n# Debugger history and local environment\n.byebug_history\n.env\n',
  },
  {
    key: 'Rust',
    name: 'Rust',
    content: '# Rust: Cargo build output, rustfmt backups and profiling data\n/target/\n\n# Libraries usually leave the lock file out; applications and binaries commit it\n# Cargo.lock\n\n# Backup files written by older rustfmt versions\n**/*.rs.bk\n\n# Debug symbols on Windows\n*.pdb\n\n# Coverage and profiling output\n*.profraw\n*.profdata\n',
  },
  {
    key: 'Scala',
    name: 'Scala',
    content: '# Scala: sbt, Bloop, Metals and scala-cli build state and compiler output\ntarget/\nproject/target/\nproject/project/\n\n# Build servers and editors\n.bsp/\n.bloop/\n.metals/\n.scala-build/\nmetals.sbt\n\n# Compiled classes and logs\n*.class\n*.log\n',
  },
  {
    key: 'Swift',
    name: 'Swift',
    content: '# Swift: Xcode user data, build products and Swift Package Manager state\nxcuserdata/\n*.xcscmblueprint\n*.xccheckout\n\n# Build products\nbuild/\nDerivedData/\n*.moved-aside\n*.hmap\n*.ipa\n*.dSYM\n*.dSYM.zip\n\n# Swift Package Manager\n.build/\n.swiftpm/\n\n# CocoaPods and Carthage; some teams commit Pods/ instead\n# Pods/\nCarthage/Build/\n\n# fastlane output\nfastlane/report.xml\nfastlane/Preview.html\nfastlane/screenshots/**/*.png\nfastlane/test_output/\n',
  },
  {
    key: 'Terraform',
    name: 'Terraform',
    content: '# Terraform: provider plugins, state files, saved plans and local variable files\n.terraform/\n\n# State may hold secrets; keep it in a remote backend instead\n*.tfstate\n*.tfstate.*\n*.tfplan\n\n# Crash logs\ncrash.log\ncrash.*.log\n\n# Variable files often hold credentials\n*.tfvars\n*.tfvars.json\n\n# Local overrides\noverride.tf\noverride.tf.json\n*_override.tf\n*_override.tf.json\n\n# CLI configuration\n.terraformrc\nterraform.rc\n\n# The dependency lock file .terraform.lock.hcl is meant to be committed\n',
  },
  {
    key: 'Unity',
    name: 'Unity',
    content: '# Unity: generated library, build output, logs and IDE project files\n/[Ll]ibrary/\n/[Tt]emp/\n/[Oo]bj/\n/[Bb]uild/\n/[Bb]uilds/\n/[Ll]ogs/\n/[Uu]ser[Ss]ettings/\n/[Mm]emoryCaptures/\n/[Rr]ecordings/\n\n# Project files regenerated by the editor\n*.csproj\n*.sln\n*.suo\n*.user\n*.unityproj\n*.pidb\n*.booproj\n*.svd\n*.opendb\n*.VC.db\n\n# Debug symbols\n*.pdb\n*.mdb\n\n# Build artifacts and exported packages\n*.apk\n*.aab\n*.unitypackage\ncrashlytics-build.properties\n',
  },
  {
    key: 'VisualStudio',
    name: 'VisualStudio',
    content: '# Visual Studio: user options, build configurations, test results and NuGet packages\n.vs/\n*.suo\n*.user\n*.userosscache\n*.sln.docstates\n*.rsuser\n\n# Build configurations and output\n[Dd]ebug/\n[Dd]ebugPublic/\n[Rr]elease/\n[Rr]eleases/\nx64/\nx86/\n[Aa][Rr][Mm]64/\nbld/\n[Bb]in/\n[Oo]bj/\n[Ll]og/\n[Ll]ogs/\nartifacts/\n\n# C++ build intermediates\n*.ilk\n*.ipch\n*.pdb\n*.tlog\n*.aps\n*.VC.db\n*.VC.opendb\n\n# Test results\nTestResults/\n[Tt]est[Rr]esult*/\n\n# NuGet\n*.nupkg\n*.snupkg\n**/[Pp]ackages/*\n!**/[Pp]ackages/build/\nproject.lock.json\nproject.fragment.lock.json\n\n# ReSharper\n_ReSharper*/\n*.DotSettings.user\n',
  },
  {
    key: 'Zig',
    name: 'Zig',
    content: '# Zig: build cache and default install prefix\n.zig-cache/\nzig-cache/\nzig-out/\n\n# Object files from direct compiler runs\n*.o\n*.obj\n',
  },
  {
    key: 'Backup',
    name: 'Backup',
    content: '# Backup and merge leftovers written by editors, patch and merge tools\n*.bak\n*.orig\n*.rej\n*.tmp\n*.swp\n*.gho\n*.ori\n',
  },
  {
    key: 'Emacs',
    name: 'Emacs',
    content: '# Emacs: backups, autosave and lock files, compiled Lisp and package state\n*~\n\\#*\\#\n.\\#*\nauto-save-list/\n/.emacs.desktop\n/.emacs.desktop.lock\n\n# Compiled Emacs Lisp\n*.elc\n/eln-cache/\n\n# Packages and modes that keep state in the project\n/elpa/\nflycheck_*.el\n.projectile\n.org-id-locations\n*_archive\ntramp\n/server/\n/network-security.data\n',
  },
  {
    key: 'JetBrains',
    name: 'JetBrains',
    content: '# JetBrains IDEs (IntelliJ IDEA, PyCharm, WebStorm, GoLand and others): per-user and generated files\n.idea/**/workspace.xml\n.idea/**/tasks.xml\n.idea/**/usage.statistics.xml\n.idea/**/shelf\n.idea/**/dictionaries\n\n# Data source settings may hold credentials\n.idea/**/dataSources/\n.idea/**/dataSources.ids\n.idea/**/dataSources.local.xml\n.idea/**/dbnavigator.xml\n\n# Files generated from the build tool\'s model\n.idea/**/gradle.xml\n.idea/**/libraries\n\n# Caches and plugin state\n.idea/caches/\n.idea/httpRequests/\n.idea/sonarlint/\nhttp-client.private.env.json\n\n# Old project format and module output\n*.iws\n.idea_modules/\nout/\n\n# CLion build directories\ncmake-build-*/\n',
  },
  {
    key: 'Linux',
    name: 'Linux',
    content: '# Linux: editor backups, desktop folder settings, trash and NFS leftovers\n*~\n\n# Files FUSE keeps while a deleted file is still open\n.fuse_hidden*\n\n# KDE folder view settings\n.directory\n\n# Per-volume trash folders\n.Trash-*\n\n# Files NFS keeps while a deleted file is still open\n.nfs*\n',
  },
  {
    key: 'Vim',
    name: 'Vim',
    content: '# Vim: swap, persistent undo, session and netrw history files\n*.swp\n*.swo\n*.swn\n.*.sw[a-p]\n\n# Persistent undo files\n*.un~\n\n# Sessions and netrw history\nSession.vim\nSessionx.vim\n.netrwhist\n\n# Backup files\n*~\n\n# Tags generated by ctags\ntags\n',
  },
  {
    key: 'VisualStudioCode',
    name: 'VisualStudioCode',
    content: '# Visual Studio Code: per-user workspace state; shared settings stay committed\n.vscode/*\n!.vscode/settings.json\n!.vscode/tasks.json\n!.vscode/launch.json\n!.vscode/extensions.json\n!.vscode/*.code-snippets\n\n# Local History extension\n.history/\n\n# Packaged extensions\n*.vsix\n',
  },
  {
    key: 'Windows',
    name: 'Windows',
    content: '# Windows: thumbnail caches, folder settings, recycle bin, dumps and shortcuts\nThumbs.db\nThumbs.db:encryptable\nehthumbs.db\nehthumbs_vista.db\n\n# Folder view settings\n[Dd]esktop.ini\n\n# Recycle bin on shared drives\n$RECYCLE.BIN/\n\n# Crash dumps\n*.stackdump\n\n# Installer packages\n*.msi\n*.msix\n*.msm\n*.msp\n*.cab\n\n# Shortcuts\n*.lnk\n',
  },
  {
    key: 'macOS',
    name: 'macOS',
    content: '# macOS: Finder metadata, AppleDouble resource forks and volume-level files\n.DS_Store\n.AppleDouble\n.LSOverride\n._*\n\n# Files macOS may create at the root of a volume\n.DocumentRevisions-V100\n.fseventsd\n.Spotlight-V100\n.TemporaryItems\n.Trashes\n.VolumeIcon.icns\n.com.apple.timemachine.donotpresent\n\n# Files left on shares by AFP servers\n.AppleDB\n.AppleDesktop\n.apdisk\nNetwork Trash Folder\nTemporary Items\n',
  },
];
