import type { Activity } from '../../schemas/activities.js';

/**
 * Every numeric reading an environmental sensor reports, with the alert field of its threshold and the
 * trigger an alert carries when the reading goes above it. Names are the policy alert's fields; the
 * threshold names are the platform's own (not always `<reading>Threshold`). `integer` readings are int32
 * in the platform's record, the others floats.
 */
export interface ReadingSpec {
  reading: string;
  threshold: string;
  integer: boolean;
  trigger: Activity;
}

const spec = (reading: string, threshold: string, trigger: Activity, integer = false): ReadingSpec => ({ reading, threshold, integer, trigger });

export const READINGS: readonly ReadingSpec[] = [
  spec('airQualityIndex', 'airQualityIndexThreshold', 'AQI_EXCEEDED_HIGH', true),
  spec('ch2oPpb', 'ch2oPpbThreshold', 'FORMALDEHYDE_EXCEEDED_HIGH'),
  spec('co2', 'co2Threshold', 'CO2_EXCEEDED_HIGH'),
  spec('co2Ppm', 'co2PpmThreshold', 'CO2_EXCEEDED_HIGH', true),
  spec('coConcentration', 'coConcentrationThreshold', 'CARBON_MONOXIDE_EXCEEDED_HIGH'),
  spec('ethanol', 'ethanolThreshold', 'ETOH_EXCEEDED_HIGH'),
  spec('heatIndexDegF', 'heatIndexDegFThreshold', 'HEAT_INDEX_EXCEEDED_HIGH'),
  spec('humidityPercent1616', 'humidityPercentThreshold1616', 'HUMIDITY_EXCEEDED_HIGH', true),
  spec('humidityPermyriad', 'humidityThresholdPermyriad', 'HUMIDITY_EXCEEDED_HIGH', true),
  spec('iaq', 'iaqThreshold', 'IAQ_EXCEEDED_HIGH'),
  spec('noxIdx', 'noxIdxThreshold', 'NOX_IDX_EXCEEDED_HIGH'),
  spec('pm1p0', 'pm1p0Threshold', 'PM10_EXCEEDED_HIGH'),
  spec('pm4p0', 'pm4p0Threshold', 'PM40_EXCEEDED_HIGH'),
  spec('pm10p0', 'pm10p0Threshold', 'PM100_EXCEEDED_HIGH'),
  spec('pm25', 'pm25Threshold', 'PM25_EXCEEDED_HIGH'),
  spec('pressure', 'pressureThreshold', 'PRESSURE_EXCEEDED_HIGH'),
  spec('probeTempC', 'probeTempCThreshold', 'PROBE_TEMPERATURE_EXCEEDED_HIGH'),
  spec('relHumid', 'relHumidThreshold', 'HUMIDITY_EXCEEDED_HIGH'),
  spec('tempC', 'tempCThreshold', 'TEMPERATURE_EXCEEDED_HIGH'),
  spec('temperatureCelsius1616', 'temperatureCelsiusThreshold1616', 'TEMPERATURE_EXCEEDED_HIGH', true),
  spec('temperaturePermyriad', 'temperatureThresholdPermyriad', 'TEMPERATURE_EXCEEDED_HIGH', true),
  spec('thcPercent', 'thcPercentThreshold', 'CLIMATE_THC'),
  spec('tvoc', 'tvocThreshold', 'TVOC_EXCEEDED_HIGH'),
  spec('vapeSmokePercent', 'vapeSmokePercentThreshold', 'CLIMATE_VAPE'),
  spec('vocIdx', 'vocIdxThreshold', 'VOC_IDX_EXCEEDED_HIGH'),
];

/** The record's older name for the probe temperature threshold, filled alongside probeTempCThreshold. */
export const LEGACY_PROBE_THRESHOLD = 'probeTempThreshold';

export interface Crossing {
  spec: ReadingSpec;
  value: number;
  threshold: number;
}

/**
 * The readings that are above the sensor's thresholds (configured by reading name, as in the site file:
 * `{co2Ppm: 1500}`). A reading without a threshold never crosses; a reading equal to it does not either.
 */
export function crossedThresholds(readings: Readonly<Record<string, number | undefined>>, thresholds: Readonly<Record<string, unknown>>): Crossing[] {
  const crossings: Crossing[] = [];
  for (const s of READINGS) {
    const value = readings[s.reading];
    const threshold = thresholds[s.reading];
    if (typeof value === 'number' && typeof threshold === 'number' && value > threshold) crossings.push({ spec: s, value, threshold });
  }
  return crossings;
}

/** A climate policy's thresholds (by the activity an alert carries) as thresholds by reading name. */
export function thresholdsByReading(byActivity: ReadonlyMap<Activity, number>): Record<string, number> {
  return Object.fromEntries(READINGS.filter((s) => byActivity.has(s.trigger)).map((s) => [s.reading, byActivity.get(s.trigger)!]));
}

/** The alert fields of a set of crossings: each reading beside the threshold it crossed. */
export function crossingFields(crossings: readonly Crossing[]): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const { spec: s, value, threshold } of crossings) {
    fields[s.reading] = value;
    fields[s.threshold] = threshold;
    if (s.reading === 'probeTempC') fields[LEGACY_PROBE_THRESHOLD] = threshold;
  }
  return fields;
}
