import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import { assignToDevice, assignToDoor, assignToLocation, clientLicenses, deviceLicenseView, doorLicenseView, licensesOf, usageLicenseView } from './service.js';

const tags = ['License'];
const L = '/api/license';

/** Licenses: the organization's, assigned to its devices, doors and locations; a partner reads its clients'. */
export function licenseRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${L}/assignDeviceLicense`,
      operationId: 'assignDeviceLicense',
      summary: "Assign a device license to a device of its family (the device's former license is freed)",
      tags,
      body: s.AssignDeviceLicenseRequest,
      response: s.DeviceLicenseAnswer,
    },
    async (input, ctx) => ({ deviceLicense: deviceLicenseView(await assignToDevice(deps, ctx, 'DEVICE', input)) }),
  );
  operation(
    app,
    {
      path: `${L}/assignLicense`,
      operationId: 'assignLicense',
      summary: 'Assign an add-on license (cloud archiving, analytics, ...) to a camera',
      tags,
      body: s.AssignDeviceLicenseRequest,
      response: s.UsageLicenseAnswer,
    },
    async (input, ctx) => ({ licenseUsage: usageLicenseView(await assignToDevice(deps, ctx, 'LICENSE_USAGE', input)) }),
  );
  operation(
    app,
    {
      path: `${L}/assignACUDoorLicense`,
      operationId: 'assignACUDoorLicense',
      summary: 'Assign an access-control license to a door',
      tags,
      body: s.AssignDoorLicenseRequest,
      response: s.DoorLicenseAnswer,
    },
    async (input, ctx) => ({ acuDoorLicense: doorLicenseView(await assignToDoor(deps, ctx, input)) }),
  );
  operation(
    app,
    {
      path: `${L}/assignAlertMonitoringLicense`,
      operationId: 'assignAlertMonitoringLicense',
      summary: "Assign an alert-monitoring license to a location: it covers the location's cameras, up to its allowance",
      tags,
      body: s.AssignAlertMonitoringLicenseRequest,
      response: s.AlertMonitoringLicenseAnswer,
    },
    async (input, ctx) => ({ alertMonitoringLicense: await assignToLocation(deps, ctx, input) }),
  );

  const lists = [
    ['getDeviceLicenses', 'DEVICE', 'deviceLicenses', s.DeviceLicensesAnswer, 'device licenses'],
    ['getLicenses', 'LICENSE_USAGE', 'licenses', s.UsageLicensesAnswer, 'add-on licenses'],
    ['getACUDoorLicenses', 'ACCESS_CONTROL', 'acuDoorLicenses', s.DoorLicensesAnswer, 'access-control door licenses'],
    ['getAlertMonitoringLicenses', 'ALERT_MONITORING', 'alertMonitoringLicenses', s.AlertMonitoringLicensesAnswer, 'alert-monitoring licenses'],
  ] as const;
  for (const [name, product, field, response, what] of lists) {
    operation(
      app,
      {
        path: `${L}/${name}`,
        operationId: name,
        summary: `The organization's ${what}, assigned or not`,
        tags,
        body: name === 'getLicenses' || name === 'getDeviceLicenses' ? s.GetLicensesRequest : s.EmptyRequest,
        response,
      },
      async (input, ctx) => ({
        [field]: await licensesOf(deps, ctx.orgUuid, product, (input as { optionalDeviceTypeFilter?: string | null }).optionalDeviceTypeFilter),
      }),
    );
    const forClient = [`${L}/${name}ForClientOrg`, ...(name === 'getDeviceLicenses' || name === 'getLicenses' ? [`/api/partner/${name}ForOrg`] : [])];
    for (const path of forClient) {
      operation(
        app,
        {
          path,
          operationId: path.split('/').at(-1)!,
          summary: `A client organization's ${what}, read by its partner`,
          tags,
          body: s.ClientOrgRequest,
          response,
          access: 'partner',
        },
        async (input, ctx) => ({ [field]: await clientLicenses(deps, ctx, input.orgUuid, product) }),
      );
    }
  }
}
