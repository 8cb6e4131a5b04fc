{{/* Names are the release's name with a suffix, cut to 63 characters: Service and pod names become DNS labels. */}}
{{- define "mqtt-load.name" -}}
{{- printf "%s-%s" .root.Release.Name .suffix | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "mqtt-load.labels" -}}
app.kubernetes.io/name: mqtt-load
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* What selectors match: labels that never change after install. */}}
{{- define "mqtt-load.selector" -}}
app.kubernetes.io/name: mqtt-load
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "mqtt-load.image" -}}
{{ printf "%s:%s" .Values.image.repository .Values.image.tag | quote }}
{{- end -}}

{{/* The engines' headless Service, which gives pod n the DNS name <release>-engine-n.<this>.<namespace>.svc. */}}
{{- define "mqtt-load.enginesService" -}}
{{- include "mqtt-load.name" (dict "root" . "suffix" "engines") -}}
{{- end -}}

{{/* Engine pod i's DNS name, the name it advertises as java.rmi.server.hostname and Prometheus scrapes. */}}
{{- define "mqtt-load.engineHost" -}}
{{- printf "%s-%d.%s.%s.svc" (include "mqtt-load.name" (dict "root" .root "suffix" "engine")) .ordinal (include "mqtt-load.enginesService" .root) .root.Release.Namespace -}}
{{- end -}}

{{/* The controller's -R list: every engine's registry, host:port. */}}
{{- define "mqtt-load.engineHosts" -}}
{{- $hosts := list -}}
{{- range $ordinal := until (int .Values.engines.replicas) -}}
{{- $hosts = append $hosts (printf "%s:%d" (include "mqtt-load.engineHost" (dict "root" $ "ordinal" $ordinal)) (int $.Values.rmi.serverPort)) -}}
{{- end -}}
{{- join "," $hosts -}}
{{- end -}}

{{/* The RMI transport of every pod: SSL off, or the keystore Secret's file and password. */}}
{{- define "mqtt-load.rmiEnv" -}}
{{- if .Values.rmi.ssl.enabled -}}
- name: RMI_SSL_DISABLE
  value: "false"
- name: RMI_KEYSTORE_FILE
  value: /etc/mqtt-load/rmi/{{ .Values.rmi.ssl.keystoreKey }}
- name: RMI_KEYSTORE_ALIAS
  value: {{ .Values.rmi.ssl.alias | quote }}
- name: RMI_KEYSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ required "rmi.ssl.keystoreSecret: the Secret holding the RMI keystore, when rmi.ssl.enabled" .Values.rmi.ssl.keystoreSecret }}
      key: {{ .Values.rmi.ssl.passwordKey }}
{{- else -}}
- name: RMI_SSL_DISABLE
  value: "true"
{{- end }}
{{- end -}}

{{- define "mqtt-load.rmiVolumeMount" -}}
{{- if .Values.rmi.ssl.enabled -}}
- name: rmi-keystore
  mountPath: /etc/mqtt-load/rmi
  readOnly: true
{{- end }}
{{- end -}}

{{- define "mqtt-load.rmiVolume" -}}
{{- if .Values.rmi.ssl.enabled -}}
- name: rmi-keystore
  secret:
    secretName: {{ .Values.rmi.ssl.keystoreSecret }}
{{- end }}
{{- end -}}

{{- define "mqtt-load.influxUrl" -}}
{{- printf "http://%s:8086" (include "mqtt-load.name" (dict "root" . "suffix" "influxdb")) -}}
{{- end -}}

{{- define "mqtt-load.prometheusUrl" -}}
{{- printf "http://%s:9090" (include "mqtt-load.name" (dict "root" . "suffix" "prometheus")) -}}
{{- end -}}
