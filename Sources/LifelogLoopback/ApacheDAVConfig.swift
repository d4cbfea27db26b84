@preconcurrency import Glibc

/// The configuration of Apache httpd (Debian `apache2`) as a WebDAV server on 127.0.0.1 with
/// basic authentication, run single-process (`apache2 -X -f <folder>/httpd.conf`): the server the
/// WebDAV tests and the `webdav` benchmark start.
///
/// Everything Apache keeps is in `folder`: its pid, `lock/` (mod_dav's lock database),
/// `htpasswd`, and `access.log`, one `METHOD path status` line a request, which the tests and
/// the benchmark count. As root, Apache will not serve: it becomes `nobody`, who must own
/// `files`, `lock/` and `htpasswd`.
public struct ApacheDAVConfig {
  /// Apache's own folder.
  public var folder: String
  /// The folder it serves.
  public var files: String
  public var port: Int
  /// Where Apache writes its errors.
  public var errorLog: String
  /// `LimitRequestBody`, when set: a PUT larger than this is answered 413.
  public var bodyLimit: Int?
  /// A certificate and its key, to serve HTTPS (mod_ssl).
  public var tls: (certificate: String, key: String)?

  public init(
    folder: String, files: String, port: Int, errorLog: String, bodyLimit: Int? = nil,
    tls: (certificate: String, key: String)? = nil
  ) {
    self.folder = folder
    self.files = files
    self.port = port
    self.errorLog = errorLog
    self.bodyLimit = bodyLimit
    self.tls = tls
  }

  /// Debian's modules.
  static let modules = "/usr/lib/apache2/modules"

  /// The text of `httpd.conf`.
  public var text: String {
    let modules = ApacheDAVConfig.modules
    var config = """
      ServerRoot \(folder)
      PidFile \(folder)/httpd.pid
      Listen 127.0.0.1:\(port)
      ServerName 127.0.0.1
      LoadModule mpm_event_module \(modules)/mod_mpm_event.so
      LoadModule authn_core_module \(modules)/mod_authn_core.so
      LoadModule authn_file_module \(modules)/mod_authn_file.so
      LoadModule authz_core_module \(modules)/mod_authz_core.so
      LoadModule authz_user_module \(modules)/mod_authz_user.so
      LoadModule auth_basic_module \(modules)/mod_auth_basic.so
      LoadModule dav_module \(modules)/mod_dav.so
      LoadModule dav_fs_module \(modules)/mod_dav_fs.so
      ErrorLog \(errorLog)
      LogFormat "%m %U %>s" lifelog
      CustomLog \(folder)/access.log lifelog
      DavLockDB \(folder)/lock/DavLock
      DocumentRoot \(files)
      <Directory \(files)>
        Dav On
        AuthType Basic
        AuthName "lifelog"
        AuthUserFile \(folder)/htpasswd
        Require valid-user

      """
    if let bodyLimit { config += "  LimitRequestBody \(bodyLimit)\n" }
    config += "</Directory>\n"
    if let tls {
      config += """
        LoadModule ssl_module \(modules)/mod_ssl.so
        SSLEngine on
        SSLCertificateFile \(tls.certificate)
        SSLCertificateKeyFile \(tls.key)

        """
    }
    if geteuid() == 0 { config += "User nobody\nGroup nogroup\n" }
    return config
  }
}
